def turn_mode(state): raise NotImplementedError
