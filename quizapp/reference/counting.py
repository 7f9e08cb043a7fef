"""Parameter counting that works on the meta device and counts tied weights once."""

from torch import nn

from quizapp.reference.attention import MultiHeadAttention
from quizapp.reference.blocks import FeedForward
from quizapp.reference.models import BertPooler, MaskedLMHead
from quizapp.reference.normalization import BatchNorm, LayerNorm, RMSNorm
from quizapp.reference.positional import LearnedPositionalEmbedding

# Checked from the outermost module inwards, so e.g. the LayerNorm inside the MLM head counts
# as "mlm_head", not "norms".
_COMPONENTS: tuple[tuple[type[nn.Module] | tuple[type[nn.Module], ...], str], ...] = (
    ((nn.Embedding, LearnedPositionalEmbedding), "embeddings"),
    (MultiHeadAttention, "attention"),
    (FeedForward, "ffn"),
    ((LayerNorm, RMSNorm, BatchNorm, nn.LayerNorm, nn.RMSNorm), "norms"),
    (BertPooler, "pooler"),
    (MaskedLMHead, "mlm_head"),
)


def _unique_parameters(model: nn.Module) -> list[tuple[str, nn.Parameter]]:
    # A tied weight is one tensor reachable under two names (tok_emb.weight, lm_head.weight);
    # keep it once, under the first name registered. numel() only reads the shape, so this
    # works on meta tensors, which have no storage.
    seen: set[int] = set()
    unique = []
    for name, param in model.named_parameters(remove_duplicate=False):
        if id(param) not in seen:
            seen.add(id(param))
            unique.append((name, param))
    return unique


def count_parameters(model: nn.Module) -> int:
    """Number of distinct trainable numbers in the model (tied weights counted once)."""
    return sum(param.numel() for _, param in _unique_parameters(model))


def _component(model: nn.Module, param_name: str) -> str:
    path = param_name.split(".")[:-1]  # owning module's path, e.g. ["blocks", "0", "attn", ...]
    for depth in range(1, len(path) + 1):
        module = model.get_submodule(".".join(path[:depth]))
        for types, label in _COMPONENTS:
            if isinstance(module, types):
                return label
    # Anything else is named after its top-level attribute, e.g. "lm_head".
    return path[0] if path else "other"


def parameter_breakdown(model: nn.Module) -> dict[str, int]:
    """Unique parameter counts grouped by component: embeddings, attention, ffn, norms, and
    whatever else the model has at top level (lm_head, pooler, mlm_head). Sums to
    count_parameters(model); a tied LM head adds nothing beyond the embeddings."""
    breakdown: dict[str, int] = {}
    for name, param in _unique_parameters(model):
        label = _component(model, name)
        breakdown[label] = breakdown.get(label, 0) + param.numel()
    return breakdown
