"""Hierarchical Bayesian models of female-translation rates (PyMC; fitted with nutpie or PyMC's NUTS).

``data`` turns judgement tables into cell counts and designs, ``build`` makes
models without fitting them, ``fit`` samples and diagnoses, ``derived`` turns
posteriors into the studies' quantities (P_S, TGBI, language rates).
"""
