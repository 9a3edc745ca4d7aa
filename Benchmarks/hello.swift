// The baseline for start-up time: a statically linked Swift program that prints one line.
print("hello")
