"""HF-style loop: gradient accumulation, warm-up schedule, clipping,
zero_grad(set_to_none=True), model.train()/eval()."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 16)
        self.ln = nn.LayerNorm(16)
        self.head = nn.Linear(16, 40)

    def forward(self, input_ids, labels=None):
        logits = self.head(self.ln(self.emb(input_ids)))
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits.view(-1, 40),
                                               labels.view(-1))
        return {"loss": loss, "logits": logits}


def main():
    torch.manual_seed(0)
    device = torch.device("cuda") if torch.cuda.is_available() \
        else torch.device("cpu")
    model = TinyLM().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01)
    accum, total = 2, 6
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / 2))
    batches = [torch.randint(0, 40, (2, 8)) for _ in range(total)]
    model.train()
    for i, batch in enumerate(batches):
        batch = batch.to(device)
        out = model(input_ids=batch, labels=batch)
        (out["loss"] / accum).backward()
        if (i + 1) % accum == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
        print(f"loss {out['loss'].item():.9g}")
    model.eval()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
