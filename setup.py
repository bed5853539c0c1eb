"""The build's one addition to pyproject.toml: the documentation's pages, rendered as plain text
into the package (``catrules/docs_pages/*.txt``) for ``catrules docs``.

The pages are rendered from ``docs/*.rst`` each time the package is built, by the same code
(``catrules/authoring/docs_text.py``) that ``catrules docs`` uses in a source checkout, so the
installed pages cannot differ from the docs they were built from.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_docs(build_py):
    """``build_py``, then the pages of ``docs/`` written into the built package."""

    def run(self):
        super().run()
        spec = importlib.util.spec_from_file_location("_catrules_docs_text",
                                                      HERE / "catrules" / "authoring" / "docs_text.py")
        docs_text = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(docs_text)
        source = HERE / "docs"
        if not (source / "language.rst").is_file():
            raise SystemExit(f"catrules: the documentation is not in {source}: `catrules docs` needs it")
        target = Path(self.build_lib) / "catrules" / docs_text.PAGES_FOLDER
        target.mkdir(parents=True, exist_ok=True)
        for name, text in docs_text.render_all(source).items():
            (target / f"{name}.txt").write_text(text, encoding="utf-8")


setup(cmdclass={"build_py": build_py_with_docs})
