"""variance_drift and gradient_flow: the lesson's claims, measured live."""

from __future__ import annotations

import itertools
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from quizapp.experiments.context import SEED, Context
from quizapp.experiments.lab.normalization import gradient_flow, variance_drift
from quizapp.experiments.runner import run

NAMES = ("variance_drift", "gradient_flow")
SMALL_ARGS = {
    "variance_drift": {"n_layers": 6, "d_model": 32, "n_tokens": 32},
    "gradient_flow": {"n_layers": 4, "d_model": 16},
}


def _ctx(seed: int = SEED) -> Context:
    return Context(device=torch.device("cpu"), seed=seed)


@pytest.fixture(scope="module")
def drift():
    return run("variance_drift", {})


@pytest.fixture(scope="module")
def flow():
    return run("gradient_flow", {})


# --- variance_drift ------------------------------------------------------------------------


def test_residuals_without_norm_reach_the_lessons_two_to_the_twenty(drift) -> None:
    n_layers = drift.args["n_layers"]
    assert n_layers == 20
    assert 2**20 / 4 < drift.values["residual_final"] < 2**20 * 4
    assert 1.8 < drift.values["residual_doubling_ratio"] < 2.2
    residual = drift.series.lines["residual x = x + f(x)"]
    assert all(b > a for a, b in itertools.pairwise(residual))


def test_post_ln_holds_one_pre_ln_grows_linearly_plain_stays_bounded(drift) -> None:
    lines = drift.series.lines
    post, pre = lines["Post-LN x = LN(x + f(x))"], lines["Pre-LN x = x + f(LN(x))"]
    plain = lines["plain x = f(x)"]
    assert all(0.5 <= v <= 2 for v in post)
    assert all(0.5 * (layer + 1) <= v <= 2 * (layer + 1) for layer, v in enumerate(pre))
    assert all(0.25 <= v <= 4 for v in plain)
    assert drift.values["post_ln_final"] == post[-1]
    assert drift.values["pre_ln_final"] == pre[-1]
    assert drift.series.log_y and len(drift.series.x) == 21
    assert "doubles each layer" in drift.summary


@settings(max_examples=25, deadline=None)
@given(
    n_layers=st.integers(1, 12),
    d_model=st.integers(32, 128),
    n_tokens=st.integers(32, 128),
    seed=st.integers(0, 2**31),
)
def test_variance_drift_shapes_hold_for_any_small_stack(n_layers, d_model, n_tokens, seed) -> None:
    result = variance_drift(_ctx(seed), n_layers=n_layers, d_model=d_model, n_tokens=n_tokens)
    plain, residual, post, pre = result.series.lines.values()
    assert len(post) == n_layers + 1
    assert all(abs(v - 1) < 1e-3 for v in post[1:])  # LayerNorm output: variance 1 exactly
    assert all(0.5 * (layer + 1) <= v <= 2 * (layer + 1) for layer, v in enumerate(pre))
    assert 2**n_layers / 4 < residual[-1] < 2**n_layers * 4
    assert all(0.25 <= v <= 4 for v in plain)


# --- gradient_flow -------------------------------------------------------------------------


def test_pre_ln_last_layer_gradient_shrinks_with_depth_post_ln_does_not(flow) -> None:
    v, n_layers = flow.values, flow.args["n_layers"]
    assert v["pre_ln_depth_ratio"] < v["post_ln_depth_ratio"]
    assert v["pre_ln_depth_ratio"] < 0.75  # clearly shrinking
    assert 0.5 < v["post_ln_depth_ratio"] < 2  # roughly independent of depth
    # Xiong et al.: Pre-LN scales like 1/√L; allow the finite-depth offset a factor of two.
    assert 0.5 < v["pre_ln_depth_ratio"] / math.sqrt(2 / n_layers) < 2
    assert v["pre_ln_slope"] < -0.2 < v["post_ln_slope"]
    pre = flow.series.lines["Pre-LN"]
    assert pre[-1] < pre[0]
    assert v["pre_ln_last_ffn_grad"] == pre[-1]
    assert v["post_ln_last_ffn_grad"] == flow.series.lines["Post-LN"][-1]
    assert flow.series.x[-1] == n_layers


def test_residuals_carry_the_gradient_to_the_first_layer(flow) -> None:
    v = flow.values
    assert v["first_layer_grad_residual"] > 100 * v["first_layer_grad_plain"] > 0
    assert v["first_layer_grad_plain"] < v["last_layer_grad_plain"]  # it vanishes going back
    (per_layer,) = flow.extra_tables
    plain = [row[1] for row in per_layer.rows]
    assert plain == sorted(plain)  # smaller the further back


def test_gradient_flow_holds_at_another_size_and_under_no_grad() -> None:
    with torch.no_grad():  # it turns autograd on itself
        v = gradient_flow(_ctx(7), n_layers=16, d_model=32).values
    assert v["pre_ln_depth_ratio"] < v["post_ln_depth_ratio"]
    assert v["first_layer_grad_residual"] > v["first_layer_grad_plain"]
