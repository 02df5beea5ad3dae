#!/usr/bin/env python3
"""A complete client for an exported Ayoayo policy in Python with numpy only.

    npx ayoayo export --from models/pretrained/policy.json --format json --out exported/json
    python3 examples/python/client.py exported/json

It implements the rules (legal moves, relays, captures, the end of the game),
computes the observation of any encoding, lookahead features included, exactly
as the export's features.md says, runs the network of the `json` export
(policy.json) with numpy, and first checks itself against the export's
vectors.json: every position's features, probabilities and value. It exits
with status 1, naming the first difference, if anything disagrees. Then it
chooses a move for the start position.

Given the `onnx` export (model.onnx) instead, it runs that with ONNX Runtime
(pip install onnxruntime): session.run(["policy", "value"],
{"observation": x, "action_mask": mask}) returns the masked probabilities.
A folder it cannot use ends it with one line saying why, and status 1.
"""

import base64
import json
import math
import sys
from pathlib import Path

import numpy as np

WINNING_STORE = 25
PIT_SCALE = 12.0
STORE_SCALE = 24.0
LAPS_LOG2_SCALE = 8.0
ONEHOT_BUCKETS = 13
THERMOMETER_LEVELS = 12
# Lookahead features per action besides the board after it: eight before it, the two stores after.
LOOKAHEAD_SCALARS = 10


# ---------------------------------------------------------------- the rules


def play(pits, stores, to_move, action, capture_seed_stays):
    """Plays `action` for `to_move`; returns (pits, stores, laps), or None if the move is illegal."""
    pits, stores = list(pits), list(stores)
    own, opp = 6 * to_move, 6 * (1 - to_move)
    pit = own + action
    if pits[pit] == 0:
        return None  # empty pit
    opponent_was_empty = sum(pits[opp : opp + 6]) == 0
    lap_starts = set()
    laps = 0
    while True:
        start = (tuple(pits), pit)
        if start in lap_starts:
            return None  # endless relay: this lap would start again from the same board and pit
        lap_starts.add(start)
        seeds, pits[pit], end = pits[pit], 0, pit
        laps += 1
        while seeds > 0:
            end = (end + 1) % 12
            if end == pit:
                continue  # a lap skips the pit it was lifted from
            pits[end] += 1
            seeds -= 1
        if pits[end] == 1:
            break  # the last seed fell into an empty pit
        pit = end  # relay
    facing = 11 - end
    if own <= end < own + 6 and pits[facing] > 0:
        captured, pits[facing] = pits[facing], 0
        if not capture_seed_stays:
            pits[end] = 0
            captured += 1
        stores[to_move] += captured
    if opponent_was_empty and sum(pits[opp : opp + 6]) == 0:
        return None  # does not feed the opponent's empty row
    return pits, stores, laps


def legal_actions(pits, stores, to_move, rules):
    if max(stores) >= WINNING_STORE:
        return []
    css = rules["captureSeedStays"]
    return [a for a in range(6) if play(pits, stores, to_move, a, css) is not None]


def final_scores(pits, stores, to_move, rules):
    """The final scores of a finished position (a winning store, or `to_move` cannot move)."""
    if max(stores) >= WINNING_STORE:
        return list(stores)
    rows = [sum(pits[0:6]), sum(pits[6:12])]
    if rules["leftoverTo"] == "owner":
        return [stores[0] + rows[0], stores[1] + rows[1]]
    scores = list(stores)
    scores[1 - to_move] += rows[0] + rows[1]  # the player who made the last move takes the board
    return scores


def parse_position(notation):
    """'4,4,4,4,4,4/4,4,4,4,4,4/0-0/0' -> (pits, stores, to_move)."""
    row0, row1, stores, to_move = notation.split("/")
    pits = [int(s) for s in row0.split(",")] + [int(s) for s in row1.split(",")]
    return pits, [int(s) for s in stores.split("-")], int(to_move)


# ---------------------------------------------------------------- the observation


def pit_features(seeds, encoding):
    if encoding == "counts":
        return [seeds / PIT_SCALE]
    if encoding == "onehot":
        bucket = [0.0] * ONEHOT_BUCKETS
        bucket[min(seeds, ONEHOT_BUCKETS - 1)] = 1.0
        return bucket
    return [1.0 if seeds >= level else 0.0 for level in range(1, THERMOMETER_LEVELS + 1)]


def lookahead_block(pits, stores, m, action, rules, pit_encoding):
    """The features of one action (features.md, 'The lookahead features'); the board after it in pit_encoding."""
    o = 1 - m
    css = rules["captureSeedStays"]
    child = None if max(stores) >= WINNING_STORE else play(pits, stores, m, action, css)
    if child is None:
        return [0.0] * (LOOKAHEAD_SCALARS + 12 * len(pit_features(0, pit_encoding)))
    c_pits, c_stores, laps = child
    block = [1.0, (c_stores[m] - stores[m]) / STORE_SCALE, min(1.0, math.log2(1 + laps) / LAPS_LOG2_SCALE)]
    replies = []
    if max(c_stores) < WINNING_STORE:
        replies = [r for r in (play(c_pits, c_stores, o, a, css) for a in range(6)) if r is not None]
    if not replies:
        final = final_scores(c_pits, c_stores, o, rules)
        diff = final[m] - final[o]
        block += [1.0, float((diff > 0) - (diff < 0)), 0.0, 0.0, diff / STORE_SCALE]
    else:
        opp_capture, opp_can_win, value2 = 0, 0.0, math.inf
        for r_pits, r_stores, _ in replies:
            opp_capture = max(opp_capture, r_stores[o] - c_stores[o])
            if max(r_stores) >= WINNING_STORE or not legal_actions(r_pits, r_stores, m, rules):
                final = final_scores(r_pits, r_stores, m, rules)
                diff = final[m] - final[o]
                if diff < 0:
                    opp_can_win = 1.0
            else:
                diff = r_stores[m] - r_stores[o]
            value2 = min(value2, diff)
        block += [0.0, 0.0, opp_capture / STORE_SCALE, opp_can_win, value2 / STORE_SCALE]
    for k in list(range(6 * m, 6 * m + 6)) + list(range(6 * o, 6 * o + 6)):
        block += pit_features(c_pits[k], pit_encoding)
    block += [c_stores[m] / STORE_SCALE, c_stores[o] / STORE_SCALE]
    return block


def observation(pits, stores, m, config, rules):
    """The observation from the mover m's side, as float32 (features.md, 'Every feature')."""
    o = 1 - m
    x = []
    for k in list(range(6 * m, 6 * m + 6)) + list(range(6 * o, 6 * o + 6)):
        x += pit_features(pits[k], config["encoding"])
    x += [stores[m] / STORE_SCALE, stores[o] / STORE_SCALE]
    if config["lookahead"]:
        for action in range(6):
            x += lookahead_block(pits, stores, m, action, rules, config.get("lookaheadEncoding", "counts"))
    return np.array(x, dtype=np.float32)


# ---------------------------------------------------------------- the network


def dense(layer):
    def floats(text):
        return np.frombuffer(base64.b64decode(text), dtype="<f4")

    kernel = floats(layer["kernel"]).reshape(layer["inputSize"], layer["outputSize"])
    return kernel, floats(layer["bias"]), layer["activation"]


def apply(layer, x):
    kernel, bias, activation = layer
    y = (x @ kernel + bias).astype(np.float32)
    if activation == "relu":
        return np.maximum(y, 0)
    if activation == "tanh":
        return np.tanh(y)
    return y


class Policy:
    """The `json` export (policy.json): hidden layers, 6 policy logits, a tanh value."""

    def __init__(self, path):
        file = json.loads(Path(path).read_text())
        network = file["network"]
        self.hidden = [dense(layer) for layer in network["hidden"]]
        self.policy = dense(network["policy"])
        self.value = dense(network["value"])
        self.observation = file["observation"]
        self.rules = file["rules"]

    def evaluate(self, x, legal):
        """Masked probabilities (illegal actions exactly 0) and the value for the player to move."""
        for layer in self.hidden:
            x = apply(layer, x)
        logits = apply(self.policy, x).astype(np.float64)
        mask = np.zeros(6, dtype=bool)
        mask[legal] = True
        probabilities = np.zeros(6)
        if mask.any():
            e = np.exp(logits[mask] - logits[mask].max())
            probabilities[mask] = e / e.sum()
        return probabilities, float(apply(self.value, x)[0])


class OnnxPolicy:
    """The `onnx` export (model.onnx) on ONNX Runtime, its observation and rules from manifest.json."""

    def __init__(self, folder, onnxruntime):
        manifest = json.loads((folder / "manifest.json").read_text())
        self.observation = manifest["observation"]
        self.rules = manifest["rules"]
        self.session = onnxruntime.InferenceSession(str(folder / "model.onnx"))

    def evaluate(self, x, legal):
        """The graph masks itself: illegal actions come out exactly 0."""
        mask = np.zeros((1, 6), dtype=np.float32)
        mask[0, legal] = 1.0
        policy, value = self.session.run(["policy", "value"], {"observation": x[None, :], "action_mask": mask})
        return policy[0].astype(np.float64), float(value[0][0])


class Unusable(Exception):
    """A folder this client cannot use, in one line."""


def load(folder):
    """The policy of an export folder (`ayoayo export --out`) and its vectors.json."""
    if folder.is_file() and folder.name == "policy.json":
        folder = folder.parent
    if not folder.is_dir():
        raise Unusable(f"{folder}: no such folder; give the folder `ayoayo export --out` wrote")
    if (folder / "policy.json").is_file():
        policy = Policy(folder / "policy.json")
    elif (folder / "model.onnx").is_file():
        try:
            import onnxruntime
        except ImportError:
            raise Unusable(
                f"{folder} holds the onnx export (model.onnx), which runs on ONNX Runtime: "
                "pip install onnxruntime, or export --format json for numpy alone"
            ) from None
        policy = OnnxPolicy(folder, onnxruntime)
    elif (folder / "model.json").is_file():
        raise Unusable(f"{folder} holds the tfjs export (model.json), which runs on tfjs: export --format json or onnx for this client")
    else:
        raise Unusable(f"{folder} holds no export this client runs (policy.json or model.onnx)")
    if not (folder / "vectors.json").is_file():
        raise Unusable(f"{folder} has no vectors.json to check this client against; export it again")
    return policy, json.loads((folder / "vectors.json").read_text())


# ---------------------------------------------------------------- check, then play


def check(policy, vectors):
    """Compares this client with vectors.json; returns a list of differences (empty: all agree)."""
    tolerance = vectors["tolerance"]
    for vector in vectors["positions"]:
        where = vector["position"]
        pits, stores, to_move = parse_position(where)
        legal = legal_actions(pits, stores, to_move, policy.rules)
        if legal != vector["legal"]:
            return [f"{where}: legal actions {legal}, expected {vector['legal']}"]
        x = observation(pits, stores, to_move, policy.observation, policy.rules)
        expected = np.array(vector["features"], dtype=np.float32)
        if x.shape != expected.shape:
            return [f"{where}: {x.size} features, expected {expected.size}"]
        wrong = np.flatnonzero(np.abs(x - expected) > tolerance["features"])
        if wrong.size > 0:
            i = int(wrong[0])
            return [f"{where}: feature {i} is {x[i]:.7g}, expected {expected[i]:.7g} ({wrong.size} features differ)"]
        probabilities, value = policy.evaluate(x, legal)
        gap = float(np.max(np.abs(probabilities - np.array(vector["probabilities"]))))
        if gap > tolerance["probabilities"]:
            return [f"{where}: probabilities {np.round(probabilities, 6).tolist()}, expected {vector['probabilities']}"]
        if abs(value - vector["value"]) > tolerance["value"]:
            return [f"{where}: value {value:.7g}, expected {vector['value']:.7g}"]
    return []


def main(folder):
    try:
        policy, vectors = load(Path(folder))
    except Unusable as unusable:
        print(f"client.py: {unusable}", file=sys.stderr)
        return 1
    differences = check(policy, vectors)
    if differences:
        print("MISMATCH " + differences[0])
        return 1
    config = policy.observation
    boards = config.get("lookaheadEncoding", "counts")
    lookahead = f" + lookahead{'' if boards == 'counts' else f' of {boards} boards'}" if config["lookahead"] else ""
    print(
        f"OK: {len(vectors['positions'])} positions, features ({config['encoding']}"
        f"{lookahead}, {len(vectors['positions'][0]['features'])} each), "
        "probabilities and values agree with vectors.json"
    )
    pits, stores, to_move = parse_position("4,4,4,4,4,4/4,4,4,4,4,4/0-0/0")
    legal = legal_actions(pits, stores, to_move, policy.rules)
    probabilities, value = policy.evaluate(observation(pits, stores, to_move, config, policy.rules), legal)
    action = int(np.argmax(probabilities))  # illegal actions have probability exactly 0
    print(f"start position: play action {action} (pit {action + 6 * to_move}), p = {probabilities[action]:.3f}, value {value:+.3f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: client.py EXPORT_FOLDER   (a folder written by `ayoayo export --format json` or onnx)")
    sys.exit(main(sys.argv[1]))
