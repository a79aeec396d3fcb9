import torch
from torch.utils.data import DataLoader


def train(model, train_dataset, optimizer, lr_scheduler, num_epochs, device):
    train_dataloader = DataLoader(train_dataset, shuffle=True, batch_size=8)
    model.to(device)
    model.train()
    for epoch in range(num_epochs):
        for batch in train_dataloader:
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()


def train_accelerate(accelerator, model, dataloader, optimizer):
    for batch in dataloader:
        outputs = model(**batch)
        loss = outputs.loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
