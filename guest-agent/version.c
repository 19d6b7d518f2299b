/* SPDX-License-Identifier: GPL-2.0-or-later */
const char vdc_agent_version[] = "0.1.0";
