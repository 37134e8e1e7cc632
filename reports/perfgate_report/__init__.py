"""perfgate_report: markdown and matplotlib plots from perfgate results JSON (schema v1).

    python3 -m perfgate_report RESULTS.json [-o DIR]
    python3 -m perfgate_report A.json B.json [-o DIR]
"""

__version__ = "0.1.0"
