"""The compiled search core; everything else about the package is in pyproject.toml.

The extension is optional: without a C compiler (or the Python headers) the
install still succeeds and the solver uses its pure-Python search.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "agnes_teach.solver._core",
            ["agnes_teach/solver/_core.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
