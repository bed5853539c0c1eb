"""Hand-written Meow: the speed baseline for random playouts.

A plain Python implementation of Meow (rule ids M01-M18 in the project's rules
checklist), written the way one would write it without the rules language.
It is meant to be straightforward and reasonably efficient, not micro-tuned:
it is what the interpreter is compared against in ``benchmarks/run.py``.

Every choice is made by a random player, uniformly among the legal options.
A choice with two or more legal options counts as a *decision*; a choice with
a single legal option is played automatically and counts as *forced*.

    >>> result = play_random_game(4, seed=1)
    >>> sorted(result)
    ['decisions', 'forced', 'scores', 'winners']
"""

from __future__ import annotations

import random

GREEN, BLUE, PINK = 0, 1, 2  # M01: green is trump
COLOUR_NAMES = ("green", "blue", "pink")

# M02 (ruling): the award tokens as (kind, value).
FOOD, FISHBONE, FISH, VASE = "food", "fishbone", "fish", "vase"
TOKENS = (
    [(FOOD, v) for v in (1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10)]
    + [(FISHBONE, v) for v in (-1, -2, -3, -4, -5, -6, -8, -10)]
    + [(FISH, 0)] * 4
    + [(VASE, 0)] * 4
)

ROUNDS = 3
TURNS = 9  # M07/M08: nine cards each, nine turns a round

# M18: the lowest value removed in the expert variant (values up to 17 go).
EXPERT_REMOVE_FROM = {2: 6, 3: 9, 4: 12, 5: 15, 6: 18}

# Offset used to seed the player's generator apart from the game's one, so
# that the two streams are not the same sequence of numbers.
PLAYER_SEED_OFFSET = 0x9E3779B9


def make_cards(players: int, expert: bool = False) -> list[tuple[int, int]]:
    """The cat cards in play, as (colour, value) pairs (M01, M18)."""
    cards = [(c, v) for c in (GREEN, BLUE, PINK) for v in range(1, 19)]
    if expert:
        low = EXPERT_REMOVE_FROM[players]
        cards = [card for card in cards if not (low <= card[1] <= 17)]
    return cards


def legal_cards(hand: list, lead_colour: int | None) -> list:
    """The cards a player may play (M09): anything when leading, otherwise
    the led colour if the hand holds any, otherwise anything."""
    if lead_colour is None:
        return hand
    follow = [card for card in hand if card[0] == lead_colour]
    return follow if follow else hand


def trick_winner(plays: list, lead_colour: int) -> int:
    """The player who wins a turn (M10).

    ``plays`` is a list of (player, (colour, value)) in playing order. The
    deciding colour is green if any green was played, else the led colour;
    within it the highest value wins, except that a 1 ranks above the 18 of
    its colour when both were played.
    """
    colour = lead_colour
    for _, card in plays:
        if card[0] == GREEN:
            colour = GREEN
            break
    values = [card[1] for _, card in plays if card[0] == colour]
    one_beats_eighteen = 1 in values and 18 in values
    best_player, best_rank = -1, -1
    for player, card in plays:
        if card[0] != colour:
            continue
        rank = card[1]
        if rank == 1 and one_beats_eighteen:
            rank = 19
        if rank > best_rank:
            best_player, best_rank = player, rank
    return best_player


def score_tokens(won: list) -> dict:
    """Score one player's kept tokens (M13, M15); fish were already used (M14)."""
    food = sum(v for kind, v in won if kind == FOOD)
    fishbones = sum(v for kind, v in won if kind == FISHBONE)
    vases = sum(1 for kind, _ in won if kind == VASE)
    vase_penalty = -20 if vases >= 2 else 0  # M15 ruling: -20 in total
    return {
        "food": food,
        "fishbones_kept": fishbones,
        "vases": vase_penalty,
        "total": food + fishbones + vase_penalty,
    }


def play_random_game(players: int, seed: int, expert: bool = False, log: list | None = None) -> dict:
    """Play one game of Meow with a uniformly random player in every seat.

    Returns {"scores": [total per player], "winners": [player indices],
    "decisions": int, "forced": int}. If ``log`` is a list, events are
    appended to it (for testing; the benchmark passes nothing).
    """
    if not 2 <= players <= 6:
        raise ValueError("Meow is for 2 to 6 players")
    game_rng = random.Random(seed)                          # shuffles, first player
    player_rng = random.Random(seed + PLAYER_SEED_OFFSET)   # the random player's choices
    choose = player_rng.choice

    cards = make_cards(players, expert)
    tokens = list(TOKENS)
    game_rng.shuffle(tokens)                 # M04: three stacks of nine
    first_player = game_rng.randrange(players)  # M05
    won = [[] for _ in range(players)]
    decisions = forced = 0

    for rnd in range(ROUNDS):
        deck = list(cards)                   # M12: every cat card back in the deck
        game_rng.shuffle(deck)               # M05/M12
        row = tokens[rnd * TURNS:(rnd + 1) * TURNS]  # M06: face up, taken from the left
        hands = [deck[p * TURNS:(p + 1) * TURNS] for p in range(players)]  # M07
        if log is not None:
            log.append(("round", rnd, first_player, [list(h) for h in hands], list(row)))
        leader = first_player                # M08
        for turn in range(TURNS):
            plays = []
            lead_colour = None
            for i in range(players):         # M09: clockwise from the leader
                p = (leader + i) % players
                hand = hands[p]
                legal = legal_cards(hand, lead_colour)
                if len(legal) > 1:
                    decisions += 1
                    card = choose(legal)
                else:
                    forced += 1
                    card = legal[0]
                hand.remove(card)
                if lead_colour is None:
                    lead_colour = card[0]
                plays.append((p, card))
            leader = trick_winner(plays, lead_colour)  # M10; M08: winner starts next
            token = row[turn]                # M11: the leftmost remaining token
            won[leader].append(token)
            if log is not None:
                log.append(("turn", rnd, turn, plays, leader, token))
        first_player = (first_player + 1) % players   # M12

    # M14: each fish discards one fishbone chosen by its owner (one per fish;
    # a fish with no fishbone left does nothing).
    for p in range(players):
        mine = won[p]
        fish = sum(1 for kind, _ in mine if kind == FISH)
        for _ in range(fish):
            bones = [t for t in mine if t[0] == FISHBONE]
            if not bones:
                break
            if len(bones) > 1:
                decisions += 1
                bone = choose(bones)
            else:
                forced += 1
                bone = bones[0]
            mine.remove(bone)
            if log is not None:
                log.append(("fish", p, bone))

    scores = [score_tokens(w)["total"] for w in won]   # M13, M15
    best = max(scores)
    winners = [p for p, s in enumerate(scores) if s == best]  # M16: ties share
    if log is not None:
        log.append(("end", [list(w) for w in won], scores, winners))
    return {"scores": scores, "winners": winners, "decisions": decisions, "forced": forced}


if __name__ == "__main__":
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    print(play_random_game(n, seed=1))
