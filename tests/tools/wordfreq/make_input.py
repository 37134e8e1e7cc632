"""Writes DIR/data/words.txt (DIR: the first argument, default .): about 2 MB of
Zipf-distributed words from a 20,000-word vocabulary, the same bytes on every run (seed 7)."""
import os
import random
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
rng = random.Random(7)
vocab = ["w%04d" % i for i in range(20000)]
weights = [1.0 / (i + 1) for i in range(len(vocab))]
words = rng.choices(vocab, weights, k=330000)
os.makedirs(os.path.join(root, "data"), exist_ok=True)
with open(os.path.join(root, "data", "words.txt"), "w") as f:
    for i in range(0, len(words), 12):
        f.write(" ".join(words[i:i + 12]) + "\n")
