def setup_mode(state): raise NotImplementedError
