# A directory named after the library it benchmarks does not shadow it.
import transformer_engine.pytorch as te

layer = te.Linear(16, 16)
