"""Structured infill (DESIGN §7): schema-frozen JSON and layout-frozen Markdown tables.

Keys, brackets, pipes and headers are locked; every value is a slot; all slots are denoised
together, and nothing is offered before it validates:

* :mod:`.schema` views a JSON Schema location as a conjunction of subschemas (local ``$ref``,
  ``allOf``) and refuses keywords it cannot honour;
* :mod:`.patterns` builds example strings for a practical regex subset;
* :mod:`.values` turns one location into a leaf spec: slot constraint, budget, shape, parser
  and valid defaults (the deterministic repair), the schema's own ``default``/``examples`` first;
* :mod:`.shapes`, :mod:`.formats` and :mod:`.words` give values their form while they denoise
  (locked punctuation, one-character runs, whole words) and Settle's stricter format checks;
* :mod:`.compiler` picks the structure (template, required + ticked optional properties, item
  counts, ``anyOf``/``oneOf`` branches) and :mod:`.render` lays it out as locked text and slots;
* :mod:`.json_problem` turns a compiled schema into slots (one per shape run) and reads them back;
* :mod:`.fill` runs every slot of a round in one parallel canvas, re-denoises failing slots,
  repairs and validates;
* :mod:`.tables` does the same for GFM tables.
"""
