"""perfgate report RESULTS.json [-o DIR]      -> DIR/report.md (+ DIR/plots/)
perfgate report A.json B.json [-o DIR]       -> DIR/comparison.md (+ DIR/plots/)

Exit codes: 0 written (its path printed on stdout), 2 bad usage or bad input (the file and the
field named on stderr; nothing written), 4 the report could not be made (an I/O error, a bug).
"""

from __future__ import annotations

import argparse
import sys
import traceback

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_CANNOT = 4


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="perfgate report",
        description="Render a perfgate results file as markdown and plots, or compare two runs.",
        epilog="One file: report.md and plots/. Two files (A then B): comparison.md, B against A. "
        "Exit 0 written, 2 bad input, 4 could not write.",
    )
    p.add_argument("results", nargs="+", metavar="RESULTS.json", help="one results file, or two to compare (A B)")
    p.add_argument("--history", action="store_true",
                   help="the file is a history series (perfgate history show ... --json FILE): write history.md and its plot")
    p.add_argument("-o", "--out", metavar="DIR", help="where to write (default: the folder of the (last) results file)")
    p.add_argument("--no-plots", action="store_true", help="markdown only")
    p.add_argument("--brief", action="store_true",
                   help="one file: brief.md, sized for a PR comment (the picture, one line per scenario, the failures)")
    p.add_argument("--diff", metavar="COMPARE.json",
                   help="two files: the rows `perfgate compare A B --json` computed, with options.alpha and "
                   "options.noise (`perfgate report A B` passes them: the report computes no statistic)")
    p.add_argument("--incomplete", action="append", default=[], metavar="TEXT",
                   help="FILE: why it cannot vouch for itself (perfgate report passes it): shown in large type")
    return p


def missing_dependencies(plots: bool) -> list[str]:
    import importlib.util

    wanted = [("numpy", "python3-numpy"), ("jsonschema", "python3-jsonschema")]
    wanted += [("matplotlib", "python3-matplotlib")] if plots else []
    return [f"{mod} (Debian: {pkg})" for mod, pkg in wanted if importlib.util.find_spec(mod) is None]


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    missing = missing_dependencies(not args.no_plots)
    if missing:
        print(f"perfgate report: {sys.executable} lacks {', '.join(missing)}; run it with a Python that has them "
              "(PERFGATE_PYTHON=/usr/bin/python3 on Debian)", file=sys.stderr)
        return EXIT_CANNOT
    from .errors import BadInput

    if len(args.results) > 2:
        print("perfgate report: give one results file, or two to compare (A B)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if len(args.results) == 2 and not args.diff:
        print("perfgate report: two runs are compared by `perfgate report A B`, which computes the rows "
              "(perfgate compare's) and passes them with --diff", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        from .bisect import build_bisect, is_bisect

        if len(args.results) == 1 and is_bisect(args.results[0]):
            path = build_bisect(args.results[0], args.out, plots=not args.no_plots)
        elif args.history:
            from .history import build_history

            path = build_history(args.results[0], args.out, plots=not args.no_plots)
        elif len(args.results) == 1:
            from .report import build_report

            path = build_report(args.results[0], args.out, plots=not args.no_plots, incomplete=args.incomplete,
                                brief=args.brief)
        else:
            from .compare import build_comparison

            path = build_comparison(args.results[0], args.results[1], args.out, diff=args.diff,
                                    plots=not args.no_plots, incomplete=args.incomplete)
    except BadInput as e:
        print(f"perfgate report: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:
        print(f"perfgate report: cannot write the report: {e}", file=sys.stderr)
        return EXIT_CANNOT
    except Exception:  # a bug: say so, with the trace, and do not pretend it was the input
        traceback.print_exc()
        print("perfgate report: internal error while rendering (a bug in perfgate_report); nothing was written",
              file=sys.stderr)
        return EXIT_CANNOT
    print(path)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
