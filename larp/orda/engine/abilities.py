def ability_mode(state): raise NotImplementedError
