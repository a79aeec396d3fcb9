x = 'a\
b' + "c\
d"
y = 1z
