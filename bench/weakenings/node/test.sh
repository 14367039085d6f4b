#!/bin/sh
# Runs the tests, and writes their JUnit report for the gate's tests:.
set -e
node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=junit.xml
