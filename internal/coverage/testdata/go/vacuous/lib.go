package lib

// Sign names the sign of x.
func Sign(x int) string {
	if x < 0 {
		return "negative"
	}
	if x == 0 {
		return "zero"
	}
	return "positive"
}

// Abs is the absolute value of x.
func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
