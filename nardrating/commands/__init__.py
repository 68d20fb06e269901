"""The commands of the command line, by job; nardrating.cli registers them on the app in help order.

common.py (shared options and helpers), club.py (init, check), writing.py (add-…, void, amend,
undo, rename, merge), lists.py (players, recalc, leaderboard, history, report), analysis.py
(predict, backtest, player, head-to-head, explain), exchange.py (publish, import, export).
"""
