"""Signs of numbers."""


def sign(x):
    if x < 0:
        return "negative"
    if x == 0:
        return "zero"
    return "positive"


def absolute(x):
    if x < 0:
        return -x
    return x
