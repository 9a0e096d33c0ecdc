# SPDX-License-Identifier: Apache-2.0
"""pyuvm environment of the radix KV-cache controller."""
