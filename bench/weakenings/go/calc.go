package calc

// Add returns a+b, saturating at 100.
func Add(a, b int) int {
	s := a + b
	if s > 100 {
		return 100
	}
	return s
}

// Sub returns a-b, never below 0.
func Sub(a, b int) int {
	d := a - b
	if d < 0 {
		return 0
	}
	return d
}
