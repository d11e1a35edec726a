"""The balance lab's experiments: what is asked, as a definition that can be stored and rerun.

Three kinds, each a list of ARMS; an arm is a number of seeded matches of one option set, one
agent per seat:

- `variants`: the same agents play two option sets (Topiary with and without
  `last_player_chooses`); every metric is compared arm against arm;
- `restriction`: a restricted agent against the standard one (Jaffe et al. 2012), seats rotated
  match by match so that no seat advantage leans on the result; its win rate against the fair
  rate says whether what it gives up matters;
- `skill`: MCTS at budgets b and 2b for b = 1, 2, 4... (Ludii's skill trace): the stronger's win
  rate as the budget doubles; near 50% all the way is a game of luck, a climb is a game of skill.

Match k of arm a of an experiment seeded s draws its deal and every decision from
`random.Random("tablelog-lab:s:a:k")`, so the same definition plays the same matches (apart from
match ids and times) in any process, on any number of workers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from tablelog.domain.agents import check_agent
from tablelog.domain.errors import Refused
from tablelog.domain.games import get_rules
from tablelog.domain.plain import PlainDict, PlainMapping
from tablelog.domain.wording import game_option_words

KINDS = ("variants", "restriction", "skill")
MAX_MATCHES = 100_000
MAX_BUDGET = 100_000
MAX_SAMPLE = 500  # humans against bots: matches per side replayed at most


@dataclasses.dataclass(frozen=True)
class Arm:
    name: str
    options: PlainMapping
    agents: tuple[str, ...]  # one per seat, before rotation; agents[0] is the focal agent
    rotate: bool = False  # seat k % players takes agents[0] in match k (head to head)

    def seating(self, number: int) -> tuple[str, ...]:
        """The agent of each seat in match `number`."""
        if not self.rotate:
            return self.agents
        n = len(self.agents)
        shift = number % n
        return tuple(self.agents[(seat - shift) % n] for seat in range(n))


@dataclasses.dataclass(frozen=True)
class Definition:
    kind: str
    game: str
    players: int
    matches: int  # per arm
    seed: int
    arms: tuple[Arm, ...]
    alpha: float = 0.05

    def to_json(self) -> PlainDict:
        return dataclasses.asdict(self) | {"arms": [dataclasses.asdict(a) for a in self.arms]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Definition:
        arms = tuple(
            Arm(a["name"], dict(a["options"]), tuple(a["agents"]), a["rotate"])
            for a in data["arms"]
        )
        return cls(
            data["kind"],
            data["game"],
            data["players"],
            data["matches"],
            data["seed"],
            arms,
            data.get("alpha", 0.05),
        )


def _checked(game: str, players: int | None, matches: int, alpha: float) -> int:
    rules = get_rules(game)
    if players is None:
        players = min(max(2, rules.min_players), rules.max_players)
    if not rules.min_players <= players <= rules.max_players or players < 2:
        raise Refused(
            f"{rules.name} experiments are for 2-{rules.max_players} players, not {players}"
        )
    if not 2 <= matches <= MAX_MATCHES:
        raise Refused(f"-n, matches per arm, must be 2-{MAX_MATCHES}, got {matches}")
    check_alpha(alpha)
    return players


def check_alpha(alpha: float) -> float:
    """The level of the tests: a probability strictly between 0 and 1 (at 0 nothing is ever
    real, at 1 everything is)."""
    if not 0 < alpha < 1:  # NaN fails this too
        raise Refused(f"--alpha, the level of the tests, must be between 0 and 1, got {alpha}")
    return alpha


def variants(
    game: str,
    a: PlainMapping,
    b: PlainMapping,
    agent: str = "random",
    players: int | None = None,
    matches: int = 100,
    seed: int = 0,
    alpha: float = 0.05,
) -> Definition:
    """Option set A against option set B, every seat played by `agent`."""
    players = _checked(game, players, matches, alpha)
    rules = get_rules(game)
    agent = check_agent(game, agent)
    arms = tuple(
        Arm(name, rules.options(dict(options)), (agent,) * players)
        for name, options in (("A", a), ("B", b))
    )
    if arms[0].options == arms[1].options:
        raise Refused(
            "the two option sets are the same once defaults are filled in: "
            + game_option_words(game, arms[0].options)
        )
    return Definition("variants", game, players, matches, seed, arms, alpha)


def restriction(
    game: str,
    restriction_name: str,
    agent: str = "random",
    players: int | None = None,
    matches: int = 100,
    seed: int = 0,
    options: PlainMapping | None = None,
    alpha: float = 0.05,
) -> Definition:
    """`agent` under a restriction against `agent`, seats rotated."""
    players = _checked(game, players, matches, alpha)
    standard = check_agent(game, agent)
    limited = check_agent(game, f"{standard}+{restriction_name}")
    arm = Arm(
        restriction_name,
        get_rules(game).options(dict(options or {})),
        (limited,) + (standard,) * (players - 1),
        rotate=True,
    )
    return Definition("restriction", game, players, matches, seed, (arm,), alpha)


def skill(
    game: str,
    budgets: Sequence[int],
    players: int | None = None,
    matches: int = 20,
    seed: int = 0,
    options: PlainMapping | None = None,
    alpha: float = 0.05,
) -> Definition:
    """MCTS at each budget against MCTS at the budget before it (1 vs 2, 2 vs 4, ...)."""
    players = _checked(game, players, matches, alpha)
    budgets = sorted(set(int(b) for b in budgets))
    if len(budgets) < 2 or budgets[0] < 1 or budgets[-1] > MAX_BUDGET:
        raise Refused(
            f"a skill trace needs two budgets or more, each 1 to {MAX_BUDGET} (e.g. 1,2,4,8)"
        )
    checked = get_rules(game).options(dict(options or {}))
    arms = tuple(
        Arm(
            f"mcts-{strong} vs mcts-{weak}",
            checked,
            (f"mcts-{strong}",) + (f"mcts-{weak}",) * (players - 1),
            rotate=True,
        )
        for weak, strong in pairwise(budgets)
    )
    return Definition("skill", game, players, matches, seed, arms, alpha)


def doubling(top: int) -> list[int]:
    """1, 2, 4, ... up to `top`."""
    budgets = [1]
    while budgets[-1] * 2 <= top:
        budgets.append(budgets[-1] * 2)
    return budgets
