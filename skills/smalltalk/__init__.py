"""Small talk without a model: greetings, thanks, moods, who-are-you, what-can-you-do, goodbyes."""
