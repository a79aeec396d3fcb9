def lr(step):
    return 0.1 * step
