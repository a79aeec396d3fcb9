s = """a
b\
c""" + rb"\x"
