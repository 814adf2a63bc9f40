"""The package list for setuptools (everything else is in pyproject.toml).

The pages' templates live in the top-level `templates/` of the repository; a built wheel or sdist
ships them as the package `warlog.templates`, where `warlog.app.TEMPLATES` finds them when the
repository is not beside the installed code.
"""

from setuptools import find_namespace_packages, setup

setup(
    packages=[*find_namespace_packages(include=["ledger*", "rules*", "validators*", "warlog*"], exclude=["*.__pycache__"]), "warlog.templates"],
    package_dir={"warlog.templates": "templates"},
)
