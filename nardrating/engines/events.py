"""The events an engine sees, under the name engine writers import them by: they live in
`nardrating.contract.events`, below both replay and the engines."""
from ..contract.events import (Adjust, Adjusted, DrawnMatch, Event, MatchFields, MatchPlayed, Player, Tournament,
                               TournamentEnded)

__all__ = ["Adjust", "Adjusted", "DrawnMatch", "Event", "MatchFields", "MatchPlayed", "Player", "Tournament",
           "TournamentEnded"]
