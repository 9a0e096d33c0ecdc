# SPDX-License-Identifier: Apache-2.0
"""Host-side pieces for the Vitis RTL-kernel wrappers (rtl/top)."""
