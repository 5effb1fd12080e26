def move_mode(state): raise NotImplementedError
