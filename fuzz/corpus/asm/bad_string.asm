op k RAW program="unterminated
