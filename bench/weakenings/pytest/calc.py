def add(a, b):
    s = a + b
    if s > 100:
        return 100
    return s


def sub(a, b):
    d = a - b
    if d < 0:
        return 0
    return d
