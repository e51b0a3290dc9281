"""The arithmetic rules of a filled JSON instance (see :mod:`.json_rules`): a line's amount is
its quantity times its rate, a total the sum of its items or of its base and extras, a tax its
rate times its base, a net its gross less its deductions, a difference its minuend less its
subtrahend.

Each rule reads one object's members by the words of their names (``field_words.json``, read
with each word's lemma, so ``tickets`` is a "ticket"), never by the values the model wrote:
those are what the rule replaces. A rate names its unit (``price_per_ticket``,
``hourly_rate``) and so its quantity (``tickets``, ``hours_worked``), which lets an object hold
several counts and prices and still multiply the right two. The rules run in the order a
person fills a form: the array sums, the product, the tax, the total; each computed member is
remembered (:attr:`Completion.computed`), so a total adds extras to what the object's own
arithmetic already gave and is never computed twice.
"""

from __future__ import annotations

import math
from typing import Any

from engine.structured import columns
from engine.structured.json_values import Completion, Members, is_number
from engine.structured.tree import Path
from engine.structured.words import core_words, key_parts, lemma, name_words, noun_words

RESULT_WORDS = frozenset({"total", "sum"})  # what a total's name says besides what it adds up
SUMS = RESULT_WORDS | {"subtotal", "amount"}  # a name that says it is a result is not a rate
TAXES = frozenset({"tax", "vat"})


def words_of(what: str) -> frozenset[str]:
    return columns.field_words()[what]


def named(key: str, what: str) -> bool:
    return bool(name_words(key) & words_of(what))


def put(done: Completion, path: Path, members: Members, key: str, value: Any, why: str) -> None:
    """Write ``members[key]`` where that value was generated and may be computed."""
    at = (*path, key)
    if done.may_write(at):
        done.write(at, value, why)
        members[key] = done.values[at]


def numbers(members: Members) -> list[str]:
    return [k for k, v in members.items() if is_number(v)]


def is_tax(key: str) -> bool:
    return bool(name_words(key) & TAXES)


def is_extra(key: str) -> bool:
    """An extra a total adds, by the name's nouns ("service_charge", "surcharges", not
    "charged")."""
    return bool(noun_words(key) & words_of("extra"))


def unit_of(key: str) -> str | None:
    """The unit a rate is per: the word after a 'per' word, or an adjective's unit."""
    parts = key_parts(key)
    for index, word in enumerate(parts[:-1]):
        if word in words_of("per"):
            return lemma(parts[index + 1])
    adjectives = columns.unit_adjectives()
    return next((adjectives[w] for w in parts if w in adjectives), None)


def is_rate(key: str) -> bool:
    """A price of one unit: a rate word, a unit after 'per', an 'hourly'; not a tax rate."""
    words = name_words(key)
    if is_tax(key) or "percent" in words or words & SUMS:
        return False
    unit_priced = "unit" in words and bool(words & words_of("money"))
    return named(key, "rate") or unit_of(key) is not None or unit_priced


def quantity_for(members: Members, rate: str) -> str | None:
    """The member a rate multiplies: the one its unit names, else a count-named one."""
    unit = unit_of(rate)
    others = [k for k in numbers(members) if k != rate and not is_rate(k)]
    by_unit = [k for k in others if unit is not None and unit in core_words(k)]
    return next(iter(by_unit), None) or next((k for k in others if named(k, "quantity")), None)


def is_total(key: str) -> bool:
    """What the object finally comes to: a total, or what is owed (``amount_due``)."""
    return bool(name_words(key) & RESULT_WORDS) or named(key, "owed")


def product_target(members: Members, factors: tuple[str, str]) -> str | None:
    """Where a quantity times a rate goes: an amount that is not a total, else (when a tax is
    charged on it) the one fee or charge, else a subtotal (unless the object's items add up to
    it), else a total. A lone ``charge`` beside a tax is what the tax is on; beside no tax a
    fee is an extra the total adds."""
    listed = any(isinstance(v, list) for v in members.values())
    found = [k for k in numbers(members) if k not in factors and not is_rate(k) and not is_tax(k)]
    amounts = [k for k in found if named(k, "amount") or is_extra(k)]
    subtotals = [k for k in amounts if "subtotal" in name_words(k)]
    totals = [k for k in amounts if is_total(k) and k not in subtotals]
    lines = [k for k in amounts if k not in subtotals + totals and not is_extra(k)]
    charges = [k for k in amounts if k not in subtotals + totals and is_extra(k)]
    taxed = any(is_tax(k) for k in numbers(members)) and len(charges) == 1
    return next(
        iter(lines + (charges if taxed else []) + ([] if listed else subtotals) + totals), None
    )


def product(done: Completion, path: Path, members: Members) -> None:
    """A line's amount: its quantity times its rate (``hours_worked × hourly_rate``)."""
    for rate in (k for k in numbers(members) if is_rate(k)):
        quantity = quantity_for(members, rate)
        target = product_target(members, (rate, quantity)) if quantity else None
        if quantity and target and (*path, target) not in done.computed:
            value = members[quantity] * members[rate]
            put(done, path, members, target, value, f"{quantity} × {rate}")
            return


def item_amount(item: Any) -> float | None:
    """A line item's amount (its result member, not its quantity or price)."""
    if not isinstance(item, dict):
        return None
    rest = {k: v for k, v in item.items() if not is_rate(k) and not named(k, "quantity")}
    key = next((k for k in numbers(rest) if named(k, "amount")), None)
    return float(item[key]) if key else None


def summed(key: str, name: str, items: list[Any]) -> list[float] | None:
    """What ``key`` (``total_hours``) adds up over the array ``name``: the numbers named by its
    other words (each item's ``hours``, or the items, when the array is named so)."""
    wanted = core_words(key) - RESULT_WORDS
    if not wanted or "subtotal" in wanted:
        return None
    if all(is_number(item) for item in items):
        return [float(i) for i in items] if wanted <= core_words(name) else None
    found = []
    for item in items:
        if not isinstance(item, dict):
            return None
        key_of = next((k for k in numbers(item) if wanted <= core_words(k)), None)
        if key_of is None:
            return None
        found.append(float(item[key_of]))
    return found


def array_sum(done: Completion, path: Path, members: Members) -> None:
    """A total named by what it adds up (``total_km`` of the trips' ``km``), then the
    subtotal (or the total, with no tax) of the items' amounts."""
    lists = {k: v for k, v in members.items() if isinstance(v, list) and v}
    for key in [k for k in numbers(members) if name_words(k) & RESULT_WORDS]:
        for name, items in lists.items():
            terms = summed(key, name, items)
            if terms is not None:
                put(done, path, members, key, math.fsum(terms), f"sum of {name}")
                break
    target = find_named(members, "subtotal") or (
        find_named(members, "total") if not any(is_tax(k) for k in numbers(members)) else None
    )
    if target is None or (*path, target) in done.computed:
        return
    for name, items in lists.items():
        amounts = [item_amount(item) for item in items]
        if all(a is not None for a in amounts):
            put(done, path, members, target, math.fsum(a for a in amounts if a is not None),
                f"sum of {name}")  # fmt: skip
            return


def find_named(members: Members, word: str) -> str | None:
    return next((k for k in numbers(members) if word in name_words(k)), None)


def tax(done: Completion, path: Path, members: Members) -> None:
    """A tax: its rate (a share, or a percentage over 1) times the subtotal or gross, else
    the amount the object's own arithmetic computed (hours × rate)."""
    rates = [k for k in numbers(members) if {"rate"} <= name_words(k) and not is_rate(k)]
    rate = next(iter(rates), None)  # a tax's rate, not an hourly one
    tax_key = next((k for k in numbers(members) if is_tax(k) and k not in rates), None)
    computed = [k for k in numbers(members) if (*path, k) in done.computed and not is_total(k)]
    base = (
        find_named(members, "subtotal")
        or find_named(members, "gross")
        or next(iter(computed), None)
    )
    if rate and tax_key and base:
        share = members[rate] / 100 if members[rate] > 1 else members[rate]
        put(done, path, members, tax_key, share * members[base], f"{rate} × {base}")


def total(done: Completion, path: Path, members: Members) -> None:
    """A total: its base (a subtotal, a principal, what the object's arithmetic computed)
    plus its extras (tax, shipping, a fee, interest) less its deductions (a discount)."""
    keys = numbers(members)
    computed = [k for k in keys if (*path, k) in done.computed]
    base = next((k for k in keys if named(k, "base")), None) or next(iter(computed), None)
    key = next((k for k in keys if is_sum_total(k) and k != base and k not in computed), None)
    if key and not base:
        amounts_total(done, path, members, key)
    if not key or not base:
        return
    # a fee is an extra, a fee per unit or a rate is not
    spare = [k for k in keys if k not in (key, base) and unit_of(k) is None]
    spare = [k for k in spare if "rate" not in name_words(k)]
    plus = [k for k in spare if is_extra(k)]
    minus = [k for k in spare if named(k, "deduct")]
    value = members[base] + sum(members[k] for k in plus) - sum(members[k] for k in minus)
    terms = " + ".join([base, *plus]) + "".join(f" − {k}" for k in minus)
    put(done, path, members, key, value, terms)


def is_sum_total(key: str) -> bool:
    """A total the object's parts add up to: named a total or what is owed, not a subtotal."""
    return bool(name_words(key) & {"total"}) or named(key, "owed")


def amounts_total(done: Completion, path: Path, members: Members, key: str) -> None:
    """A total with no base beside it (a fare and its port fee, labour and parts): the sum of
    the object's other amounts, when every other number is one. A count, a priced unit, a
    share or a year among them says the object is not a bill of its parts."""
    others = [k for k in numbers(members) if k != key]
    countable = [
        k
        for k in others
        if named(k, "quantity") or unit_of(k) or is_tax(k) or counts(done, path, k)
    ]
    unpriced = [k for k in others if "rate" in name_words(k) or "percent" in name_words(k)]
    if len(others) < 2 or countable or unpriced or any(columns.names(k, "year") for k in others):
        return
    value = math.fsum(members[k] for k in others)
    put(done, path, members, key, value, " + ".join(others))


def counts(done: Completion, path: Path, key: str) -> bool:
    """Whether a member is a count: its schema asks for an integer (guests, seats, nights),
    where an amount of money is a number."""
    leaf = done.leaves.get((*path, key))
    return leaf is not None and leaf.kind == "integer"


def net(done: Completion, path: Path, members: Members) -> None:
    """A net: the gross less its deductions (or its tax)."""
    keys = numbers(members)
    net_key, gross = find_named(members, "net"), find_named(members, "gross")
    cut = next((k for k in keys if name_words(k) & {"deductions", "deduction"}), None) or next(
        (k for k in keys if is_tax(k) and "rate" not in name_words(k)), None
    )
    if net_key and gross and cut:
        put(done, path, members, net_key, members[gross] - members[cut], f"{gross} − {cut}")


def difference(done: Completion, path: Path, members: Members) -> None:
    """A difference-named member (profit, margin, a variance) is its minuend less its
    subtrahend (revenue − costs, budget − actual, home − away)."""
    keys = numbers(members)
    plus = next((k for k in keys if columns.names(k, "minuend")), None)
    minus = next((k for k in keys if columns.names(k, "subtrahend") and k != plus), None)
    for key in keys:
        if plus and minus and key not in (plus, minus) and columns.names(key, "difference_result"):
            put(done, path, members, key, members[plus] - members[minus], f"{plus} − {minus}")


RULES = (array_sum, product, tax, total, net, difference)
