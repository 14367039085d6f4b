from calc import add


def test_add():
    assert add(2, 3) == 5
    assert add(90, 20) == 100
