"""The lab: many games at once.

* :mod:`~catrules.lab.simulate`: bots play a game many times; who won and how;
* :mod:`~catrules.lab.parallel`: independent games on several processes or a Dask cluster;
* :mod:`~catrules.lab.balance`: the balance lab (fairness, drama, skill against luck);
* :mod:`~catrules.lab.stats`: its statistics, with :mod:`math` alone;
* :mod:`~catrules.lab.report`: its report, an HTML page with plots and JSON.
"""
