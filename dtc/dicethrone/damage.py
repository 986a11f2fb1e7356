"""Damage: everything aimed at one player during a phase in; the final damage total out.

The one damage pipeline of the engine (Vanguard rulebook, "Damage Types",
"Reducing Damage"; Marvel rulebook, "Final DMG Total (Advanced)"):

1. incoming damage: every instance collected during the phase;
2. add and subtract: Attack Modifier additions (only to modifiable damage;
   ultimate damage only ever goes up) and prevention (only against avoidable
   damage) give the subtotal;
3. multiply and divide: each multiplier or divider is computed independently
   on the subtotal, division rounded as the ruleset says (up, in Dice Throne)
   unless the effect says `(rounded down)`; their effects are added to the
   subtotal.

Isolated damage is its own instance with its own prevention, never combined.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DamageType:
    """One row of the Damage Type Chart."""

    name: str
    defendable: bool
    avoidable: bool
    modifiable: bool | str  # True, False or "increase only"
    special_targeting: bool
    attack: bool


@dataclass
class Incoming:
    """What one player is about to take this phase."""

    amounts: list[tuple[int, DamageType]] = field(default_factory=list)
    added: int = 0  # Attack Modifier damage, of the Attack's type
    prevented: int = 0
    halvings: int = 0  # `prevent half of the incoming dmg`, each on the subtotal
    halvings_down: int = 0  # of those, the ones that say `(rounded down)`
    doublings: int = 0  # multipliers that double the incoming damage
    prevent_all: bool = False

    def empty(self) -> bool:
        """Nothing collected: no damage, no prevention, no multiplier."""
        return not (self.amounts or self.added or self.prevented or self.halvings or self.doublings
                    or self.prevent_all)

    def total_before(self) -> int:
        return sum(a for a, _ in self.amounts) + self.added

    def on_its_way(self) -> bool:
        """Damage is coming that prevention would still act on."""
        if self.prevent_all or not (self.amounts or self.added):
            return False
        return self.total_before() > self.prevented


def divide(value: int, by: int, round_up: bool) -> int:
    """value / by, rounded as the ruleset says."""
    return -(-value // by) if round_up else value // by


def final_total(incoming: Incoming, attack_type: DamageType | None, round_up: bool = True) -> int:
    """The damage the player takes at the conclusion of the phase."""
    avoidable = sum(a for a, t in incoming.amounts if t.avoidable)
    unavoidable = sum(a for a, t in incoming.amounts if not t.avoidable)
    added = incoming.added if attack_type is None or attack_type.modifiable else 0
    if attack_type is not None and attack_type.avoidable:
        avoidable += added
    else:
        unavoidable += added
    if incoming.prevent_all:
        return unavoidable
    subtotal = max(0, avoidable - incoming.prevented)
    # each multiplier or divider works on the same subtotal, independently
    # a halving says how it rounds: `(rounded down)`, or as the ruleset does (the text's default;
    # `(rounded up)` is the same operand, and the ruleset rounds up)
    halves = (incoming.halvings - incoming.halvings_down) * divide(subtotal, 2, round_up) \
        + incoming.halvings_down * divide(subtotal, 2, False)
    change = incoming.doublings * subtotal - halves
    return max(0, subtotal + change) + unavoidable


def uncounted(incoming: Incoming, attack_type: DamageType | None) -> tuple[int, int]:
    """(added dmg that does not count, dmg that prevention cannot touch), for telling why the total
    is less or more than what came less what was prevented: pure dmg is not modifiable, and neither
    it nor ultimate dmg is avoidable."""
    added = incoming.added if attack_type is not None and not attack_type.modifiable else 0
    untouched = 0
    if incoming.prevented or incoming.halvings or incoming.prevent_all:
        untouched = sum(a for a, t in incoming.amounts if not t.avoidable)
        if attack_type is not None and not attack_type.avoidable and attack_type.modifiable:
            untouched += incoming.added
    return added, untouched


def isolated_total(amount: int, dtype: DamageType, prevented: int = 0) -> int:
    """An isolated instance: prevented on its own, never combined."""
    if not dtype.avoidable:
        return amount
    return max(0, amount - prevented)
