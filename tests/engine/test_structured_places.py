"""Cities beyond CLDR's exemplars (engine/structured/places.py, vocab.named_cities): GeoNames'
cities, named only where a document names a place."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.structured import places, vocab
from tests.helpers.fills import json_fill

VENUE = {"type": "object", "required": ["city", "country"],
         "properties": {"city": {"type": "string"}, "country": {"type": "string"}}}  # fmt: skip


def test_a_city_only_geonames_knows_is_named_after_a_place_cue_or_label() -> None:
    assert vocab.named_cities("The jury meets in Salzburg on Friday.") == ("Salzburg",)
    assert vocab.named_cities("Venue: Basel, the old fire station") == ("Basel",)
    assert vocab.named_cities("We land near Aarhus at noon.") == ("Aarhus",)
    assert vocab.country_of_city("Salzburg").alpha_2 == "AT"


def test_a_city_after_a_date_and_its_comma_names_the_place_where_it_closes_the_clause() -> None:
    """An event listing's "dates, place": the day order of "03/11/2027" is then Lyon's."""
    assert vocab.named_cities("Workshop dates: 03/11/2027 - 05/11/2027, Lyon.") == ("Lyon",)
    assert vocab.named_cities("Summit: 12 May 2027, Porto\nTalks all day") == ("Porto",)
    # a sentence's subject after a date is no place: the clause goes on
    assert vocab.named_cities("On 5 May 2027, Charlotte will open the fair.") == ()
    assert vocab.named_cities("Since 2019, Porto has grown.") == ()


def test_a_bare_capitalised_word_is_not_a_city_without_a_cue() -> None:
    # Mary, Charlotte and Florence are GeoNames cities too, and as often a person
    assert vocab.named_cities("Ask Mary or Charlotte; Florence has the keys.") == ()
    assert vocab.named_cities("Thanks, Salzburg team.") == ()


def test_an_english_word_month_or_short_name_alone_is_never_a_city() -> None:
    # March (England), Reading and Split are cities; "in March" is a month
    assert places.named_cities("Due in March, in Reading order, in Split mode.") == []
    assert places.named_cities("in Of the") == []


def test_an_english_word_is_a_city_when_the_country_after_it_is_that_citys() -> None:
    code = vocab.alpha_2_of
    assert places.named_cities("Workshop in Cork, Ireland; a cork in Cork.", code) == ["Cork"]
    assert places.named_cities("held in Split, Croatia", code) == ["Split"]
    assert places.named_cities("in Reading, Germany; in Split, Norway", code) == []
    assert places.named_cities("held in Split, Croatia") == []  # no country lookup given


def test_the_longest_known_run_after_the_cue_is_the_city() -> None:
    assert places.named_cities("lunch in Ghent Town Hall") == ["Ghent"]
    assert places.named_cities("flying in San Sebastián tonight") == ["San Sebastián"]


def test_a_city_keeps_the_documents_spelling_in_any_of_its_names() -> None:
    assert vocab.named_cities("a week in Malmö") == ("Malmö",)
    assert vocab.named_cities("a week in Malmo") == ("Malmo",)
    assert places.country_code("Ghent") == places.country_code("Gent") == "BE"  # English, Dutch
    assert vocab.named_cities("in Lisbon, and later in Lisbon") == ("Lisbon",)


def test_a_template_takes_the_city_the_document_names_and_its_country() -> None:
    filled = json_fill(VENUE, "The choir sings in Salzburg next spring.\n\n")
    assert filled.value == {"city": "Salzburg", "country": "Austria"}


def test_a_people_column_is_not_read_as_cities_by_its_values() -> None:
    assert vocab.country_of_exemplar("Florence") is None
    assert vocab.country_of_exemplar("Oslo").alpha_2 == "NO"


@given(st.text(max_size=200))
def test_finding_places_never_fails_on_any_text(text: str) -> None:
    found = vocab.named_cities(text)
    assert all(vocab.country_of_city(city) is not None for city in found)


def test_a_number_named_for_a_city_is_not_the_named_city() -> None:
    properties = {"city_tax": {"type": "number"}, "town": {"type": "string"}}
    schema = {"type": "object", "required": ["city_tax", "town"], "properties": properties}
    filled = json_fill(schema, "Guest bill for two nights in Salzburg.\n\n")
    assert isinstance(filled.value["city_tax"], int | float)
    assert filled.value["town"] == "Salzburg"


def test_a_city_field_takes_an_english_word_city_named_in_running_text() -> None:
    """ "in Cork." or "in Split after" names the city a field asks for when the document names
    no other; "in Split mode", a title's "In Person Today" and dates' order never take one."""
    assert vocab.field_cities("The regatta ends in Split after two days.") == ("Split",)
    assert vocab.field_cities("The clinic opens in Cork.") == ("Cork",)
    assert vocab.field_cities("Due in March, in Reading order, in Split mode.") == ()
    assert vocab.field_cities("Meet Us In Person Today at Reading Room.") == ()
    assert vocab.field_cities("We stay in Lisbon, then in Cork.") == ("Lisbon",)
    assert vocab.named_cities("The clinic opens in Cork.") == ()
    filled = json_fill(VENUE, "The ferry race ends in Split on Sunday.\n\n")
    assert filled.value == {"city": "Split", "country": "Croatia"}
