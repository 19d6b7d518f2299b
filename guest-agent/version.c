const char vdc_agent_version[] = "0.1.0";
