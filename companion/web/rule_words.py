# ruff: noqa: E501
"""Refusals and rule messages the core says in English (companion.games and the service stay
English and pure); listed here so `make i18n` extracts them, and pages show them through
``core()``: the exact English sentence in the page's language where the catalogue has it.
Messages with names or numbers in them stay English (they would need message keys in the core).
The API always answers in English: its messages are a contract for programs.
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

RULE_WORDS = (
    _l('This play has finished; its clock has stopped.'),
    _l('The clock is already paused.'),
    _l('The clock is already running.'),
    _l('Pick a saved version to restore.'),
    _l('There is no such saved version of this box data.'),
    _l('There is no earlier version of this box data to go back to.'),
    _l('This play has answered nothing about the box yet.'),
    _l('There is no such play.'),
    _l('There is nothing to undo.'),
    _l('There is nothing to redo.'),
    _l('This play has finished; only score sheets can still be corrected.'),
    _l('Pick a player of this play.'),
    _l('Say which value from the box this answers.'),
    _l('Type the number printed in the box.'),
    _l('This phone did not say who it is, so its own last change is unknown; reload the page.'),
    _l('A view token cannot change a play.'),
    _l('This row has glory values but no card type: type the name printed on the cards.'),
    _l('Paper must be a4 or letter.'),
    _l('A score pad has 1 to 8 player columns.'),
    _l('A player needs a name.'),
    _l('The game is over: no more turns.'),
    _l('Nemesis cards are only for a solo game.'),
    _l('Either choose Nemesis cards by id or ask for a number of them, not both.'),
    _l("'Neutral' is the name of the neutral player's markers; pick another name."),
    _l('The solo opponent only plays against a single player.'),
    _l('This play is finished.'),
    _l('The heroes are already handed out this round: undo back to an earlier phase to record this move.'),
    _l('Shipwrights asks only for the VP of Progress Track spaces 15 to 18.'),
    _l('The draft direction must be clockwise or counterclockwise.'),
    _l("No board met the scenario's rules; try another seed."),
    _l('The face-down stack is empty.'),
    _l('The bag is empty: move a chip from the main island instead (event move_chip).'),
    _l('Chips move from the main island only once the bag is empty.'),
    _l('Reavers asks only for the keep spoils set values and the wall majority glory.'),
    _l('The wall majority must be two numbers: the glory for the most and for the second most wall tokens.'),
    _l('Second place cannot be worth more than most walls.'),
    _l('Each keep spoils type needs a short name.'),
    _l('Pawns are placed in the actions phase; this round is in cleanup.'),
    _l('Say how many tiles the island covers.'),
    _l('Say whether the island is complete (surrounded by sea).'),
    _l('Fortresses come with Rocks of Ruin; turn the expansion on.'),
    _l("An island's name is a text of at most 60 characters."),
    _l('A fifth player needs the Rocks of Ruin expansion (its fifth colour and tiles); turn it on or play with 1 to 4.'),
    _l("Describe the captain's bonus (1 to 500 characters)."),
    _l('Only the solo game scores a second captain.'),
    _l('The solo game deals 2 different captains.'),
    _l('The game is over: every turn has been played.'),
    _l('There is no island yet; add one first.'),
    _l('The solo game keeps both captains and scores the lower one.'),
)
