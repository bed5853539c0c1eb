"""compile/invariant.py: the side of a ``preferring`` test that does not change from option to
option is read once, and only a side that reads without effect is taken."""

from catrules.compile.invariant import hoisted


def test_the_side_without_the_option_is_taken_out():
    assert hoisted("(_a_colour[_it] == _a_colour[st.c['lead']])", "_k1") == \
        ("(_a_colour[_it] == _k1)", "_a_colour[st.c['lead']]")
    assert hoisted("(V['x'] < _a_value[_it])", "_k2") == ("(_k2 < _a_value[_it])", "V['x']")


def test_calls_two_comparisons_and_tests_without_the_option_stay():
    assert hoisted("(_a_colour[_it] == f(st))", "_k") is None            # a call may have effects
    assert hoisted("(0 < _a_value[_it] < V['x'])", "_k") is None          # two comparisons
    assert hoisted("(_a_value[_it] == _a_value[_it])", "_k") is None      # both read the option
    assert hoisted("(V['x'] == 1)", "_k") is None                         # neither does
    assert hoisted("_a_flag[_it]", "_k") is None                          # no comparison
