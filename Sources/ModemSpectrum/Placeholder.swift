public enum ModemSpectrumPlaceholder {}
