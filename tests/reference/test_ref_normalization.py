"""LayerNorm, RMSNorm and BatchNorm against torch.nn, plus the properties that tell them apart."""

import statistics

import pytest
import torch
from torch import nn

from quizapp.reference import BatchNorm, LayerNorm, RMSNorm, make_norm

TOL = {"atol": 1e-10, "rtol": 0.0}


def _randomise(*params: torch.Tensor) -> None:
    with torch.no_grad():
        for p in params:
            p.normal_()


def test_layernorm_matches_torch() -> None:
    torch.manual_seed(0)
    ours, ref = LayerNorm(12, eps=1e-5).double(), nn.LayerNorm(12, eps=1e-5).double()
    _randomise(ours.weight, ours.bias)
    ref.load_state_dict(ours.state_dict())
    x = torch.randn(3, 5, 12, dtype=torch.float64) * 4 + 2
    torch.testing.assert_close(ours(x), ref(x), **TOL)


def test_layernorm_uses_biased_variance() -> None:
    values = [1.0, 2.0, 3.0, 7.0]
    norm = LayerNorm(4, eps=0.0).double()
    out = norm(torch.tensor(values, dtype=torch.float64))
    mean, pvar = statistics.fmean(values), statistics.pvariance(values)  # divide by n
    expected = torch.tensor([(v - mean) / pvar**0.5 for v in values], dtype=torch.float64)
    torch.testing.assert_close(out, expected, **TOL)
    assert statistics.variance(values) != pytest.approx(pvar)  # the test can tell them apart


def test_layernorm_normalises_each_token_on_its_own() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 6, 32, dtype=torch.float64) * 10 + 3
    out = LayerNorm(32).double()(x)
    torch.testing.assert_close(out.mean(-1), torch.zeros(4, 6, dtype=torch.float64), **TOL)
    var = out.var(-1, unbiased=False)
    torch.testing.assert_close(var, torch.ones(4, 6, dtype=torch.float64), atol=1e-5, rtol=0)


def test_rmsnorm_reads_one_token_batchnorm_reads_the_batch() -> None:
    """A token normalised alone comes out as in its batch under RMSNorm, not under BatchNorm."""
    torch.manual_seed(0)
    x = torch.randn(5, 12, dtype=torch.float64) * 3 + 1
    rms, bn = RMSNorm(12).double(), BatchNorm(12).double().train()
    alone = torch.cat([rms(x[i : i + 1]) for i in range(5)])
    torch.testing.assert_close(alone, rms(x), atol=1e-12, rtol=0)
    pair = torch.cat([bn(x[i : i + 2]) for i in (0, 2)])  # the same tokens, in batches of two
    assert (pair - bn(x[:4])).abs().max() > 0.1


def test_rmsnorm_matches_torch() -> None:
    torch.manual_seed(0)
    ours = RMSNorm(12, eps=1e-6).double()
    ref = nn.RMSNorm(12, eps=1e-6).double()
    _randomise(ours.weight)
    ref.load_state_dict(ours.state_dict())
    x = torch.randn(3, 5, 12, dtype=torch.float64) * 4 + 2
    out = ours(x)
    torch.testing.assert_close(out, ref(x), **TOL)
    assert list(dict(ours.named_parameters())) == ["weight"]  # no bias
    # RMSNorm does not centre: the output mean follows the input's sign.
    assert (RMSNorm(12).double()(x.abs()).mean(-1) > 0).all()


def test_rmsnorm_in_bfloat16_keeps_dtype_and_accuracy() -> None:
    torch.manual_seed(0)
    x = torch.randn(2, 64) * 300
    norm = RMSNorm(64)
    out = norm.to(torch.bfloat16)(x.to(torch.bfloat16))
    assert out.dtype == torch.bfloat16
    # The reduction runs in float32 inside, so only the final rounding to bfloat16 is lost.
    expected = norm.float()(x.to(torch.bfloat16).float())
    torch.testing.assert_close(out.float(), expected, atol=2e-2, rtol=1e-2)


def test_batchnorm_matches_torch_batchnorm1d_in_training_and_eval() -> None:
    torch.manual_seed(0)
    ours, ref = BatchNorm(6).double(), nn.BatchNorm1d(6).double()
    _randomise(ours.weight, ours.bias)
    with torch.no_grad():
        ref.weight.copy_(ours.weight)
        ref.bias.copy_(ours.bias)
    for _ in range(3):
        x = torch.randn(4, 5, 6, dtype=torch.float64) * 3 + 1  # [batch, seq, d]
        # nn.BatchNorm1d wants features in dim 1: [batch, d, seq]
        expected = ref(x.transpose(1, 2)).transpose(1, 2)
        torch.testing.assert_close(ours(x), expected, **TOL)
    torch.testing.assert_close(ours.running_mean, ref.running_mean, **TOL)
    torch.testing.assert_close(ours.running_var, ref.running_var, **TOL)

    ours.eval()
    ref.eval()
    x = torch.randn(2, 3, 6, dtype=torch.float64)
    torch.testing.assert_close(ours(x), ref(x.transpose(1, 2)).transpose(1, 2), **TOL)


def test_batchnorm_output_depends_on_other_sequences_layernorm_does_not() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 5, 6, dtype=torch.float64)
    changed = x.clone()
    changed[1:] = changed[1:] * 5 + 2  # alter every sequence except the first
    bn, ln = BatchNorm(6).double(), LayerNorm(6).double()
    assert not torch.allclose(bn(x)[0], bn(changed)[0])
    torch.testing.assert_close(ln(x)[0], ln(changed)[0], **TOL)
    # Per feature over all batch and sequence positions: mean 0, biased variance 1.
    out = bn(x).reshape(-1, 6)
    torch.testing.assert_close(out.mean(0), torch.zeros(6, dtype=torch.float64), **TOL)
    torch.testing.assert_close(
        out.var(0, unbiased=False), torch.ones(6, dtype=torch.float64), atol=1e-4, rtol=0
    )


def test_make_norm() -> None:
    assert isinstance(make_norm(None, 4, 1e-5), nn.Identity)
    assert isinstance(make_norm("rmsnorm", 4, 1e-5), RMSNorm)
    with pytest.raises(ValueError, match="unknown norm"):
        make_norm("groupnorm", 4, 1e-5)  # type: ignore[arg-type]
