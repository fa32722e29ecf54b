"""The food the skills know: the recipe corpus (HowToCook converted once into ``recipes.json`` by
``convert.py``, searched by ``book.py``) and the dinner catalog built on it (``catalog.py``: dishes,
ingredients, prices, nutrition), which dinner planning and the pantry both read."""
