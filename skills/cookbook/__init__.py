"""The recipe corpus: HowToCook converted once into ``recipes.json`` (``convert.py``), searched by ``book.py``."""
