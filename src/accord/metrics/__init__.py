"""Normalizers: precision, recall, F-beta and their averages."""

from .prf import ZERO_DIVISION, f_beta, precision_recall_f, safe_ratio

__all__ = ["ZERO_DIVISION", "f_beta", "precision_recall_f", "safe_ratio"]
