"""stabletorch.Size: a tensor's shape, a tuple of ints (as torch.Size)."""


class Size(tuple):
    __slots__ = ()

    def __repr__(self):
        return "stabletorch.Size([%s])" % ", ".join(str(d) for d in self)

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n
