from calc import sub


def test_sub():
    assert sub(3, 2) == 1
    assert sub(2, 3) == 0
