"""Reading a club's results for people: explain a change, predict a match, backtest the rating
systems, a player's record and a head-to-head."""
