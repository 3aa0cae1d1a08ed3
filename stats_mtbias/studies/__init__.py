"""One module per published study, wiring datasets → gender → tables → estimators → intervals."""
