"""Local parsers for Chinese answers: numbers, counts, money, yes/no, choices, lists, time phrases."""
