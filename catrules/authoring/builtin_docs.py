"""The builtin functions as the language reference explains them (docs/language.rst,
"Builtin functions"): name -> (its forms, the text).  Written by tools/make_builtin_docs.py:
do not edit, change the docs and run the tool."""

# flake8: noqa: E501
BUILTIN_DOCS = {
    'abs': (
        '`abs(x)`',
        '`x` without its sign: `abs(-3)` is 3.'),
    'any': (
        '`any(L)`',
        '`true` if `L` has at least one element.'),
    'best': (
        '`best(L, EXPR)`, `worst(L, EXPR)`',
        'The *element* of `L` with the highest (lowest) `EXPR`; the first one on a tie; `none` for an empty list.'),
    'bottom': (
        '`bottom(PILE)`',
        'The bottom of a pile, as a destination only: `move c to bottom(deck)`.'),
    'collect': (
        '`collect(L, EXPR)`',
        'The list of `EXPR` for each element `it` of `L`: `collect(range(1, 3), it * 2)` is `[2, 4, 6]`.'),
    'columns': (
        '`rows(GRID)`, `columns(GRID)`, `lines(ZONE)`, `places(ZONE)`',
        'See Lines and places (in the language reference).'),
    'copies': (
        '`copies(x, n)`',
        'A list of `n` times `x`: `copies(tuna, 2)` is `[tuna, tuna]`.'),
    'count': (
        '`count(L)`',
        'How many elements `L` has (cards in a zone, cards in a line...).'),
    'first': (
        '`first(L)`, `last(L)`',
        'The first (last) element; `none` if there is none. In a row zone, `first(row)` is the leftmost card.'),
    'join': (
        '`join(L)`',
        'A list of lists made into one list: `join([[1], [2, 3]])` is `[1, 2, 3]`.'),
    'last': (
        '`first(L)`, `last(L)`',
        'The first (last) element; `none` if there is none. In a row zone, `first(row)` is the leftmost card.'),
    'lines': (
        '`rows(GRID)`, `columns(GRID)`, `lines(ZONE)`, `places(ZONE)`',
        'See Lines and places (in the language reference).'),
    'max': (
        '`max(L, EXPR)`, `min(L, EXPR)`',
        "The highest (lowest) value of `EXPR` over `L`; 0 for an empty list. With two numbers, `max(a, b)` and `min(a, b)` give the higher (lower) of the two; the checker tells the two forms apart by the type of the first argument (see Types (in the language reference)), and in the two-number form `b` is not per element: `sum(won, max(value, bonus))` takes each card's own `bonus`."),
    'min': (
        '`max(L, EXPR)`, `min(L, EXPR)`',
        "The highest (lowest) value of `EXPR` over `L`; 0 for an empty list. With two numbers, `max(a, b)` and `min(a, b)` give the higher (lower) of the two; the checker tells the two forms apart by the type of the first argument (see Types (in the language reference)), and in the two-number form `b` is not per element: `sum(won, max(value, bonus))` takes each card's own `bonus`."),
    'next': (
        '`next(p)`, `previous(p)`',
        'The player to the left (clockwise) or to the right of `p`. `next(p, 2)` goes two seats on.'),
    'others': (
        '`others(p)`',
        'Every player except `p`, clockwise starting from `next(p)`.'),
    'owner': (
        '`owner(CARD)`',
        'The player whose zone the card is in; `none` in a shared zone.'),
    'places': (
        '`rows(GRID)`, `columns(GRID)`, `lines(ZONE)`, `places(ZONE)`',
        'See Lines and places (in the language reference).'),
    'previous': (
        '`next(p)`, `previous(p)`',
        'The player to the left (clockwise) or to the right of `p`. `next(p, 2)` goes two seats on.'),
    'random': (
        '`random(L)`',
        "An element of `L` chosen at random (from the game's seed); `none` for an empty list."),
    'range': (
        '`range(a, b)`',
        'The whole numbers from `a` to `b`: `range(1, 3)` is `[1, 2, 3]`.'),
    'rows': (
        '`rows(GRID)`, `columns(GRID)`, `lines(ZONE)`, `places(ZONE)`',
        'See Lines and places (in the language reference).'),
    'sum': (
        '`sum(L, EXPR)`',
        'The sum of `EXPR` over the elements of `L`; `sum(L)` adds up a list of numbers. 0 for an empty list.'),
    'tallied': (
        '`tallied(p)`, `tallied(p, ITEM)`\n`tallied(p)`, `tallied(p, ITEM)`',
        "Player `p`'s running total, or one score item's, over the tallies so far; see Scoring each round (in the language reference).\n\n`tallied(p)`, `tallied(p, ITEM)`: Player `p`'s running total, or one score item's, over the tallies so far; see Scoring each round (in the language reference)."),
    'top': (
        '`top(PILE)`\n`top(PILE, n)`\n`top(PILE, up to n)`',
        'The top card of a pile (the card that entered last), or `none`.\n\n`top(PILE, n)`: The top `n` cards, the top one first. A pile with fewer stops the game with an error (a short deal, see Short deals (in the language reference); in files of language 3 and older: fewer cards). `PILE` may also be a list, such as `hand of p where kind == lost`: its last `n` elements.\n\n`top(PILE, up to n)`: The top `n` cards, or all there are if fewer (language 4).'),
    'worst': (
        '`best(L, EXPR)`, `worst(L, EXPR)`',
        'The *element* of `L` with the highest (lowest) `EXPR`; the first one on a tie; `none` for an empty list.'),
}
