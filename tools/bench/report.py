"""``docs/benchmarks.md`` from the results dict: headline ratios, tables, definitions, caveats.

Every number in the page comes from the results of one run; a section that failed or was
skipped says so in its place instead of showing a number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tools.bench.markdown import failed, fmt, table
from tools.bench.remote import remote_lines
from tools.bench.review_report import review_section
from tools.bench.templates import templates_section

CHART = "benchmarks.png"

DEFINITIONS = """\
**How to read these numbers.** One run, one machine (described above), every time a median over
the cuts (the held-out spans) after a warm-up run. *Accuracy* is positional token accuracy against
the held-out text that was cut out (a proxy: an exact-token match, not a judgement of quality);
positions not yet final count as wrong. *First frame* is the first output the user sees (the first
token, or the first denoising step's draft); *first useful block* is when the first 32 tokens are
final. *Churn* is the share of displayed provisional tokens later changed. *Quality at a budget*
is the best accuracy any swept setting had made final by that time. *Effective throughput* is
accepted tokens per second of wall time (every benchmark proposal is accepted). *Device seconds*
are the process's CPU seconds per output (on a CPU the device is the CPU). The autoregressive model
sees only the text before the span; the diffusion model sees both sides. *tok/s* and
*tok/forward* count the tokens a proposal keeps: filler positions (a canvas may end early) are not
counted, so a model that fills most of its canvas with filler scores low there even when the
canvas settled quickly; compare *settled s* for the time to finish the span.
"""


def write_report(results: dict[str, Any], path: Path) -> None:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`python -m tools.bench`); raw numbers in",
        "[benchmarks.json](benchmarks.json). Re-run to refresh; do not edit by hand.",
        "",
    ]
    lines += machine_section(results)
    lines += headline(results)
    lines += [f"![Quality against latency]({CHART})", "", DEFINITIONS]
    for name in ("compare_rewrite", "compare_draft"):
        lines += compare_section(name, results.get(name))
    lines += structured_section(results.get("structured"), results.get("constraints"))
    lines += templates_section(results.get("templates"), results.get("coverage"))
    lines += edit_cost_section(results.get("edit_cost"))
    lines += file_cost_section(results.get("files"))
    lines += gemma_section(results.get("gemma_arch"))
    lines += gui_section(results.get("gui"), results.get("bench_process_peak_rss_mb"))
    lines += remote_lines(results.get("remote"))
    lines += review_section(results.get("review"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def machine_section(results: dict[str, Any]) -> list[str]:
    m = results.get("machine", {})
    model = results.get("model", {})
    rows = [[k, v] for k, v in m.items()] + [[f"model ({k})", v] for k, v in model.items()]
    rows.append(["bench wall time (s)", results.get("bench_wall_s")])
    return ["## Machine", "", *table(["", ""], rows)]


def headline(results: dict[str, Any]) -> list[str]:
    lines = ["## Headline", ""]
    for name in ("compare_rewrite", "compare_draft"):
        section = results.get(name)
        if section is None or "error" in section:
            lines.append(f"- {name}: not measured (see below).")
            continue
        ar, dif = section["autoregressive"], section["diffusion"][section["diffusion_default"]]
        lines.append(
            f"- **{section['task']}** ({section['span_tokens']} tokens, diffusion at "
            f"`{section['diffusion_default']}`): time to settled result AR/diffusion = "
            f"{ar['settle_s'] / dif['settle_s']:.2f}× (diffusion {dif['settle_s']:.2f} s, AR "
            f"{ar['settle_s']:.2f} s); tokens/s diffusion/AR = "
            f"{dif['tokens_per_s'] / ar['tokens_per_s']:.2f}×; accuracy diffusion "
            f"{dif['accuracy']:.1%} vs AR {ar['accuracy']:.1%}."
        )
    cost = results.get("edit_cost")
    if cost and "error" not in cost:
        lengths = cost["lengths"]
        lines.append(
            f"- Edit cost {lengths[0]}→{lengths[-1]} tokens: windowed (as shipped) "
            f"{cost['windowed']['ratio_last_to_first']:.2f}× (edited again: "
            f"{fmt(cost['windowed'].get('again_ratio'))}×), window opened to the document "
            f"{cost['open']['ratio_last_to_first']:.2f}× (goal ≤ 1.3×); opened with the prefix "
            f"KV cache, warm {fmt(cost['open'].get('cached_warm_ratio'))}×, cold "
            f"{fmt(cost['open'].get('cached_cold_ratio'))}×."
        )
    files = results.get("files")
    if files and "error" not in files:
        lines.append(
            f"- Edit cost by file size, {files['sizes'][0]:,} → {files['sizes'][-1]:,} bytes "
            f"(read, rewrite 200 characters, diff, save): "
            f"{files['ratio_last_to_first']:.2f}× wall, "
            f"{fmt(files.get('cpu_ratio_last_to_first'))}× CPU (goal ≤ 1.3×)."
        )
    gui = results.get("gui")
    if gui and "error" not in gui:
        lines.append(
            f"- Longest GUI event-loop stall while the worker generated: "
            f"{gui['longest_stall_ms']:.1f} ms (budget 20 ms); request → first frame "
            f"{gui['first_frame_ms']:.0f} ms (budget 100 ms), → first denoised frame "
            f"{gui['first_denoised_frame_ms']:.0f} ms."
        )
    return [*lines, ""]


def compare_section(name: str, section: Any) -> list[str]:
    problem = failed(name, section)
    if problem:
        return problem
    header = [
        "system / setting",
        "tok/s",
        "first frame ms",
        "first block ms",
        "settled s",
        "tok/forward",
        "churn",
        "accuracy",
        "CPU s",
    ]
    keys = [
        "tokens_per_s",
        "first_frame_s",
        "first_block_s",
        "settle_s",
        "tokens_per_forward",
        "churn",
        "accuracy",
        "cpu_s",
    ]

    def row(label: str, s: dict[str, float]) -> list[Any]:
        return [label] + [s[k] * 1000 if k.startswith("first") else s[k] for k in keys]

    rows = [row("autoregressive (generate, KV cache, greedy)", section["autoregressive"])]
    rows += [row(f"diffusion {k}", v) for k, v in section["diffusion"].items()]
    before, after = section["context_tokens"]
    lines = [
        f"## Task: {section['task']}",
        "",
        f"{section['span_tokens']} tokens, context {before} before / {after} after, "
        f"{section['samples']} held-out cuts.",
        "",
        *table(header, rows),
    ]
    return lines + six_metrics_table(section["six_metrics"])


def six_metrics_table(six: dict[str, dict[str, Any]]) -> list[str]:
    ar, dif = six["autoregressive"], six["diffusion"]
    rows = [
        [
            "time to first useful block (s)",
            ar["time_to_first_useful_block_s"],
            dif["time_to_first_useful_block_s"],
        ],
        ["time to complete (s)", ar["time_to_complete_s"], dif["time_to_complete_s"]],
        ["revision churn", ar["revision_churn"], dif["revision_churn"]],
        *[
            [f"quality at {b}", ar["quality_at_budget"][b], dif["quality_at_budget"][b]]
            for b in ar["quality_at_budget"]
        ],
        [
            "effective throughput (tok/s)",
            ar["effective_throughput_tok_s"],
            dif["effective_throughput_tok_s"],
        ],
        ["device (CPU) seconds per output", ar["device_s_per_output"], dif["device_s_per_output"]],
    ]
    return ["The seed's six metrics:", "", *table(["metric", "autoregressive", "diffusion"], rows)]


def structured_section(section: Any, constraints: Any) -> list[str]:
    lines = ["## Structured tasks", ""]
    lines += failed("structured", section) or structured_rows(section)
    lines += ["### Constraint overhead", ""]
    problem = failed("constraints", constraints)
    if problem:
        return lines + problem
    return lines + table(["measure", "value"], [[k, v] for k, v in constraints.items()])


def structured_rows(section: dict[str, Any]) -> list[str]:
    keys = [
        "valid",
        "settle_s",
        "forwards",
        "steps",
        "slots",
        "slots_valid_first_round",
        "redenoised",
        "repaired",
    ]
    rows = [
        [name] + [section[name].get(k) for k in keys]
        for name in ("json", "table")
        if name in section
    ]
    ar = section.get("json_autoregressive", {})
    lines = table(["task", *keys], rows)
    note = (
        f"Autoregressive JSON from the schema as a prompt: parsed {ar.get('parsed')}, valid "
        f"{ar.get('valid')}, {fmt(ar.get('settle_s'))} s for {ar.get('tokens')} tokens "
        "(no table baseline: a free-running model does not keep a table's layout)."
    )
    return [*lines, note, ""]


def edit_cost_section(section: Any) -> list[str]:
    lines = ["## Edit cost against document length", ""]
    problem = failed("edit_cost", section)
    if problem:
        return lines + problem
    rows = []
    for length in section["lengths"]:
        w, o = section["windowed"][str(length)], section["open"][str(length)]
        c = o.get("cached", {})
        rows.append(
            [
                length,
                w["edit_s"],
                w.get("again_s"),
                w["model_sees_tokens"],
                o["edit_s"],
                o["model_sees_tokens"],
                c.get("cold_edit_s"),
                c.get("warm_edit_s"),
            ]
        )
    rows.append(
        [
            "ratio last/first",
            section["windowed"]["ratio_last_to_first"],
            section["windowed"].get("again_ratio"),
            "",
            section["open"]["ratio_last_to_first"],
            "",
            section["open"].get("cached_cold_ratio"),
            section["open"].get("cached_warm_ratio"),
        ]
    )
    header = [
        "document tokens",
        "windowed edit s",
        "windowed, again s",
        "tokens seen",
        "open-window edit s",
        "tokens seen",
        "open + prefix cache, cold s",
        "open + prefix cache, warm s",
    ]
    note = (
        f"Rewrite of the last 64-token paragraph, {section['steps']} steps, the whole canvas in "
        'one block, each the first edit of its document; "again" is the same edit repeated '
        "(the embedded model keeps the text before its target cached, prefix-causal). "
        "Windowed: the context as shipped (`context_tokens`); open: the whole "
        "document, up to the model's context length. With the prefix cache (opt-in, "
        "`engine/backends/masked/prefix_cache.py`) the text before the paragraph is "
        "encoded causally once: cold is the first edit of the document (it pays that "
        "encoding), warm the same paragraph edited again (the cache is reused whole, each "
        "step runs only the paragraph)."
    )
    return [*lines, note, "", *table(header, rows)]


def file_cost_section(section: Any) -> list[str]:
    lines = ["## Edit cost against file size", ""]
    problem = failed("files", section)
    if problem:
        return lines + problem
    cells = ("edit_s", "cpu_s", "model_sees_tokens")
    rows = [
        [f"{size:,} bytes", *(section["rows"][str(size)].get(c) for c in cells)]
        for size in section["sizes"]
    ]
    cpu_ratio = section.get("cpu_ratio_last_to_first")
    rows.append(["ratio last/first", section["ratio_last_to_first"], cpu_ratio, ""])
    note = (
        f"`settle rewrite --write` after the model is loaded (`tools/bench/files.py`): read and "
        f"decode the file, rewrite {section['target_chars']} characters in its middle "
        f"({section['steps']} steps, embedded model), diff, save atomically with the BOM and line "
        "endings restored. Median of interleaved runs; goal ≤ 1.3× from 4 KB to 20 MB. The model "
        "sees at most the context window around the target: a 4 KB file cannot fill it."
    )
    header = ["file", "edit s (wall)", "edit s (CPU)", "tokens the model sees"]
    return [*lines, note, "", *table(header, rows)]


def gemma_section(section: Any) -> list[str]:
    lines = ["## DiffusionGemma architecture on the CPU (random weights)", ""]
    problem = failed("gemma_arch", section)
    if problem:
        return lines + problem
    canvas = [[c, ms] for c, ms in section["per_step_ms_by_canvas"].items()]
    prompt = [[p, ms] for p, ms in section["per_step_ms_by_prompt"]["ms"].items()]
    svs = section["stock_vs_settle"]
    stock = [[svs["stock_s"], svs["settle_s"], svs["overhead"], svs["steps"]]]
    return [
        *lines,
        f"{section['parameters'] / 1e6:.1f}M parameters, {section['size']}.",
        "",
        *table(["canvas tokens", "ms per step"], canvas),
        f"At canvas {section['per_step_ms_by_prompt']['canvas']}:",
        "",
        *table(["prompt tokens", "ms per step"], prompt),
        "Stock `generate` against Settle's loop (one canvas, same steps and prompt length):",
        "",
        *table(["stock generate s", "Settle loop s", "overhead", "steps"], stock),
    ]


def gui_section(gui: Any, bench_rss: Any) -> list[str]:
    lines = ["## Window smoothness and memory", ""]
    problem = failed("gui", gui)
    if problem:
        return lines + problem + [f"Peak RSS of the benchmark process: {fmt(bench_rss)} MB.", ""]
    note = (
        "A bare Qt event loop (offscreen `QGuiApplication`) with the app's worker transport "
        f"(`WorkerHandle`, a spawned process) ran {gui.get('edits')} rewrites of "
        f"{gui.get('steps')} steps; a {gui.get('tick_interval_ms')} ms timer recorded its tick "
        "gaps while they ran. The first frame is the locked text and noise, sent before any "
        "model work; the first denoised frame follows the first forward. The GUI's memory here "
        "is that loop's, without the window's widgets."
    )
    rows = [[k, v] for k, v in gui.items() if not isinstance(v, (list, dict))]
    rows.append(["benchmark process peak RSS (MB, both models loaded)", bench_rss])
    return [*lines, note, "", *table(["measure", "value"], rows)]
