"""Sphinx configuration of the stats_mtbias documentation (``make docs``)."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import stats_mtbias

# The pages' kernels print a warning as "Category: message", without the path of the file that raised it (a path
# of the machine that built the docs): an IPython profile in a temporary directory, whose startup file sets it.
# Only the directory made here is removed at exit: never a parent of it (the system's temporary directory).
_ipython_dir = Path(tempfile.mkdtemp(prefix="mtbias-docs-ipython-"))
_startup = _ipython_dir / "profile_default" / "startup"
_startup.mkdir(parents=True)
(_startup / "00-warnings.py").write_text(
    "import warnings\nwarnings.formatwarning = lambda message, category, *args, **kwargs: f'{category.__name__}: {message}\\n'\n"
)
os.environ["IPYTHONDIR"] = str(_ipython_dir)
os.environ["JUPYTER_RUNTIME_DIR"] = str(_ipython_dir / "runtime")  # the kernels' connection files, not in $HOME
atexit.register(shutil.rmtree, _ipython_dir, ignore_errors=True)

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
