"""Sphinx configuration of the stats_mtbias documentation (``make docs``)."""

import stats_mtbias

project = "stats_mtbias"
author = "stats_mtbias developers"
release = version = stats_mtbias.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "numpydoc", "myst_nb"]
html_theme = "pydata_sphinx_theme"
html_title = "stats_mtbias"
exclude_patterns = ["_build", "jupyter_execute"]
# Examples are executed at build time on the public datasets ($MTBIAS_DATA or the download cache).
nb_execution_mode = "force"
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_merge_streams = True
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
autodoc_typehints = "none"
autosummary_generate = False
suppress_warnings = ["mystnb.unknown_mime_type"]
nb_execution_in_temp = True  # examples write files (outputs.csv, my-report/): never into the source tree
